// spec: lock.cfg
import java.util.concurrent.locks.ReentrantLock;

class Account {
    private final ReentrantLock lock = new ReentrantLock();
    private int balance;

    int withdraw(int amount) {
        lock.lock();
        try {
            if (amount > balance) {
                return -1;
            }
            balance -= amount;
            return balance;
        } finally {
            lock.unlock();
        }
    }

    public static void main(String[] args) {
        Account a = new Account();
        a.withdraw(Input.readInt());
    }
}
