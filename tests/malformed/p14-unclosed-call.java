// expect: 5:5
class Main {
    void f() {
        g(1, 2
    }
}
