// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: `write(byte[])` is `OutputStream`'s own method, not the program's `write(int)`;
// it calls `write(int)` back once per byte, and each call takes the lock that nothing
// releases.
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.locks.ReentrantLock;

class Counting extends OutputStream {
    final ReentrantLock lock = new ReentrantLock();

    @Override
    public void write(int b) {
        lock.lock();
    }
}

class Main {
    public static void main(String[] args) throws IOException {
        Counting out = new Counting();
        out.write(new byte[1]);
    }
}
