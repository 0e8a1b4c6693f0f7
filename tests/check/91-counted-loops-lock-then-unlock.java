// spec: lock.cfg
// expect: verified
// why: the first loop locks n times, the second unlocks n times: lock^k unlock^k is in
// the Dyck language for every k = max(n, 0). (The pair becomes one recursion before the
// lowering, which the program grammar can count.)
class Counted {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        int n = Input.readInt();
        for (int i = 0; i < n; i++) {
            l.lock();
        }
        for (int j = 0; j < n; j++) {
            l.unlock();
        }
    }
}
