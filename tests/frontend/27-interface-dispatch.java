// spec: lock.cfg
interface Step {
    void apply(ReentrantLock l);
}

class Acquire implements Step {
    public void apply(ReentrantLock l) { l.lock(); }
}

class Release implements Step {
    public void apply(ReentrantLock l) { l.unlock(); }
}

class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        Step s1 = new Acquire();
        Step s2 = new Release();
        s1.apply(l);
        s2.apply(l);
    }
}
