// expect: 4:22
class Main {
    void f() {
        Runnable r = () -> { };
    }
}
