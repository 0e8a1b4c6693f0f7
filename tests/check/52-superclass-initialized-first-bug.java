// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: `Sub.list` is a static field declared by `Base`, and the JVM initialises the
// superclass before the subclass (JLS 12.4.2), whatever the order in the text: the
// list exists when main adds to it, and main completes with the lock held.
class Sub extends Base {
    static int y = Base.x + 1;
}
class Base {
    static java.util.List<String> list;
    static int x = 1;
    static { list = new java.util.ArrayList<>(); }
}
class Main {
    public static void main(String[] args) {
        Sub.list.add("a");
        ReentrantLock l = new ReentrantLock();
        l.lock();
    }
}
