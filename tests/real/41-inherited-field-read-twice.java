// spec: lock
// expect: verified
// jvm: `OutputStreamAppender` is a superclass outside the program
// why: `streamLock` is a field `Appender` inherits from `OutputStreamAppender`, a class
// outside the program: its value is unknown, but it is one object's field, so the lock
// and the unlock in `roll` are calls on the same lock.
import java.util.concurrent.locks.ReentrantLock;

class Appender extends OutputStreamAppender {
    void roll() {
        streamLock.lock();
        try {
            flushAll();
        } finally {
            streamLock.unlock();
        }
    }

    void flushAll() {
        System.out.println("flush");
    }
}

class Main {
    public static void main(String[] args) {
        new Appender().roll();
    }
}
