// spec: lock-paper.cfg
// expect: verified
// why: the paper's running example (Fig. 2). foo(l) either does nothing or runs
// lock; foo(l); unlock on the same l (acquire/release are one-line helpers on their
// parameter), so every completed execution emits lock^n unlock^n on the single Lock
// object (n >= 0), which is in S -> lock S unlock S | eps. Any other wildcard value sees
// the empty word. Proving it needs the summaries l1 = $1 / l2 = $1 of the paper.
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
