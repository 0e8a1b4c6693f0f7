// spec: lock
// expect: violation
// jvm: `OutputStreamAppender` is a superclass outside the program
// why: the program assigns the inherited field `streamLock` between the lock and the
// unlock, so they may be calls on two different locks: the first one stays locked.
import java.util.concurrent.locks.ReentrantLock;

class Appender extends OutputStreamAppender {
    void roll() {
        streamLock.lock();
        streamLock = new ReentrantLock();
        streamLock.unlock();
    }
}

class Main {
    public static void main(String[] args) {
        new Appender().roll();
    }
}
