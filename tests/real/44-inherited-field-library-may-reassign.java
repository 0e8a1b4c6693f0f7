// spec: lock
// expect: violation
// jvm: `OutputStreamAppender` is a superclass outside the program
// why: `reopen()` is a method `Appender` inherits from `OutputStreamAppender`, outside the
// program: it may assign the inherited field `streamLock`, so the unlock after it may be
// on another lock than the lock before it.
import java.util.concurrent.locks.ReentrantLock;

class Appender extends OutputStreamAppender {
    void roll() {
        streamLock.lock();
        reopen();
        streamLock.unlock();
    }
}

class Main {
    public static void main(String[] args) {
        new Appender().roll();
    }
}
