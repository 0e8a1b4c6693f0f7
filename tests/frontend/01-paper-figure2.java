// spec: lock-paper.cfg
// The paper's running example (Ferles et al., POPL'21, Figure 2a).
class Main {
    void foo(Lock l) {
        if (*) {
            acquire(l);
            foo(l);
            release(l);
        }
    }

    void acquire(Lock l1) {
        l1.lock();
    }

    void release(Lock l2) {
        l2.unlock();
    }

    public static void main(String[] args) {
        new Main().foo(new Lock());
    }
}
