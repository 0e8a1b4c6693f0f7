// spec: lock.cfg
// expect: verified
// why: a counter helper with a loop whose bound grows with each unrolling (s = x + 1,
// 2x + 2, …) on every path between lock and unlock. The lock is guarded by a flag a
// callee sets. The loop's predicates used to travel to every method and split this
// 40-state program into 12,000 states and 760,000 edges in one refinement (a hang with
// 9.5 GB); now a refinement that would more than double the abstraction is not applied.
class MathUtil {
    static int sum(int x, int y) {
        int s = 0;
        while (s < y) { s = s + x + 1; }
        return s;
    }
}
class Service {
    ReentrantLock lock = new ReentrantLock();
    int count = 0;
    boolean held = false;
    void take() { held = true; }
    void op(int n) {
        if (n > 2) { lock.lock(); take(); }
        count = MathUtil.sum(count, n);
        if (held) { lock.unlock(); held = false; }
    }
}
class Main {
    public static void main(String[] args) {
        Service s = new Service();
        s.op(Input.readInt());
    }
}
