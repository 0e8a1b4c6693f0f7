// spec: lock.cfg
class Main {
    public static void main(String[] args) {
        ReentrantLock[] locks = new ReentrantLock[3];
        int[] counts = {1, 2, 3};
        int[][] grid = new int[2][];
        locks[0] = new ReentrantLock();
        counts[1] += counts[0];
        ReentrantLock l = locks[0];
        l.lock();
        if (counts.length > 2) l.unlock();
    }
}
