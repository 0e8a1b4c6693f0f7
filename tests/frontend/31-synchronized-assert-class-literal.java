// spec: lock.cfg
import java.util.concurrent.locks.ReentrantLock;

class Account {
    private final Object guard = new Object();
    private final ReentrantLock lock = new ReentrantLock();
    private int balance;

    void deposit(int amount) {
        assert amount > 0 : "amount must be positive";
        synchronized (guard) {
            lock.lock();
            try {
                balance = balance + amount;
            } finally {
                lock.unlock();
            }
        }
    }

    static Object monitor() { return Account.class; }

    void audit() {
        synchronized (monitor()) {
            assert balance >= 0;
        }
        synchronized (java.lang.Object.class) {
            Log.debug(Account.class, balance);
        }
    }
}

class Main {
    public static void main(String[] args) {
        Account a = new Account();
        a.deposit(5);
        a.audit();
    }
}
