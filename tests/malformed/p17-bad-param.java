// expect: 3:15
class Main {
    void f(int, int b) { }
}
