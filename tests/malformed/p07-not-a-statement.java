// expect: 4:9
class Main {
    void f(int a) {
        a + 1;
    }
}
