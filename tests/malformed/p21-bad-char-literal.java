// expect: 4:18
class Main {
    void f() {
        char c = 'ab';
    }
}
