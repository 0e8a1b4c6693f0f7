// expect: 6:1
class Main {
    void f() {
        if (true) {
    }
