// expect: 4:37
class Main {
    void f() {
        Runnable r = new Runnable() { public void run() { } };
    }
}
