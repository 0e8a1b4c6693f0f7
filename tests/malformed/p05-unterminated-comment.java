// expect: 3:5
class Main {
    /* never closed
    void f() { }
}
