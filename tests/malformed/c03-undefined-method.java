// expect: 6:14
// spec: lock.cfg
class Main {
    static void f(int a) { }
    public static void main(String[] args) {
        Main.nope(1, 2);
    }
}
