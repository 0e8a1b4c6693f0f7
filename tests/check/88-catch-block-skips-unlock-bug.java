// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: an exception thrown between `lock()` and `unlock()` is caught, and the catch block
// does not unlock (no `finally`).
import java.util.concurrent.locks.ReentrantLock;

class Account {
    final ReentrantLock lock = new ReentrantLock();
    int balance = 0;

    void withdraw(int amount) {
        lock.lock();
        try {
            if (amount > balance) {
                throw new IllegalStateException("insufficient funds");
            }
            balance = balance - amount;
            lock.unlock();
        } catch (IllegalStateException e) {
            balance = 0;
        }
    }
}

class Main {
    public static void main(String[] args) {
        Account a = new Account();
        a.withdraw(Input.readInt());
    }
}
