// expect: 4:9
class Main {
    void f() {
        else { }
    }
}
