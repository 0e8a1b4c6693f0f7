// spec: lock.cfg
// expect: violation
// word: $1.lock()
// exit: 17
// why: `withdraw` returns early at line 17 with the lock held; the summary names that
// `return` (slicing drops it from the checked program, so it is read from the run on the
// program itself).
import java.util.concurrent.locks.ReentrantLock;

class Bank {
    static final ReentrantLock lock = new ReentrantLock();
    static int balance = 3;

    static boolean withdraw(int amount) {
        lock.lock();
        if (amount > balance) {
            return false;
        }
        balance -= amount;
        lock.unlock();
        return true;
    }

    public static void main(String[] args) {
        withdraw(Input.readInt());
    }
}
