// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: for a `Plain` stream, `write(byte[], int, int)` is `OutputStream`'s, which calls
// `Plain.write(int)` back: the lock it takes is never released.
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.locks.ReentrantLock;

class Bulk extends OutputStream {
    @Override
    public void write(int b) {
    }

    @Override
    public void write(byte[] b, int off, int len) {
    }
}

class Plain extends OutputStream {
    static final ReentrantLock LOCK = new ReentrantLock();

    @Override
    public void write(int b) {
        LOCK.lock();
    }
}

class Main {
    public static void main(String[] args) throws IOException {
        OutputStream out = args.length > 0 ? new Bulk() : new Plain();
        out.write(new byte[1], 0, 1);
    }
}
