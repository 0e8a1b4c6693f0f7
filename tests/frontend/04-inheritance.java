// spec: lock.cfg
abstract class Task {
    protected ReentrantLock lock;
    Task(ReentrantLock l) { this.lock = l; }
    abstract void body();
    void run() {
        lock.lock();
        body();
        lock.unlock();
    }
}

class PrintTask extends Task {
    PrintTask(ReentrantLock l) { super(l); }
    void body() { System.out.println("hi"); }
}

class NestedTask extends Task {
    NestedTask(ReentrantLock l) { super(l); }
    @Override
    void body() {
        lock.lock();
        lock.unlock();
    }
}

class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        Task t;
        if (args.length > 0) t = new PrintTask(l); else t = new NestedTask(l);
        t.run();
    }
}
