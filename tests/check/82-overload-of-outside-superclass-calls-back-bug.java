// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: `write(byte[], int, int)` is not the program's: `OutputStream`'s own calls
// `write(int)` once per byte written, and that overload (not `write(byte[])`) locks.
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.locks.ReentrantLock;

class Sink extends OutputStream {
    static final ReentrantLock LOCK = new ReentrantLock();

    @Override
    public void write(byte[] b) {
    }

    @Override
    public void write(int b) {
        LOCK.lock();
    }
}

class Main {
    public static void main(String[] args) throws IOException {
        new Sink().write(new byte[1], 0, 1);
    }
}
