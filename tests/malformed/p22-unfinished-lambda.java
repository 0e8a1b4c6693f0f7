// expect: 4:28 6:6
class Main {
    void f() {
        Runnable r = () -> ;
        Runnable s = x -> { g(x); ;
    }
}
