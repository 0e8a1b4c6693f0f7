// spec: lock.cfg
class Main {
    static void down(ReentrantLock l, int n) {
        if (n <= 0) return;
        l.lock();
        down(l, n - 1);
        l.unlock();
    }

    static boolean even(int n) { return n == 0 ? true : odd(n - 1); }
    static boolean odd(int n) { return n == 0 ? false : even(n - 1); }

    public static void main(String[] args) {
        down(new ReentrantLock(), Input.readInt());
        even(4);
    }
}
