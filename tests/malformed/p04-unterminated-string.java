// expect: 4:20
class Main {
    void f() {
        String s = "abc;
    }
}
