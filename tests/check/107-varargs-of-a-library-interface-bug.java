// spec: lock.cfg
// expect: violation
// word: $1.lock()
// exit: 16
// why: a variable-arity method whose parameters are a library interface
// (`java.lang.reflect.Type`) is called with class literals, whose relation to it the
// checker's table of library types does not know; it is the only method that takes four
// arguments, so it is the one called, and it takes the lock for good.
import java.lang.reflect.Type;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
class Types {
    static ReentrantLock L = new ReentrantLock();
    static int count(Type owner, Type raw, Type... args) {
        L.lock();
        return args.length;
    }
}
class Main {
    public static void main(String[] a) {
        Type t = Main.class;
        int n = Types.count(Map.class, Map.Entry.class, t, t);
    }
}
