// spec: lock.cfg
class Resource {
    private ReentrantLock guard = new ReentrantLock();
    private int uses;

    Resource use() {
        this.guard.lock();
        this.uses = this.uses + 1;
        return this;
    }

    Resource done() {
        guard.unlock();
        return this;
    }

    public static void main(String[] args) {
        new Resource().use().done();
    }
}
