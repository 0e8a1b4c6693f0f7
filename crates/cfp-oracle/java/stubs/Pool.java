/** A pool the corpus takes locks from: each call hands out a new lock. */
final class Pool {
    private Pool() {}

    static ReentrantLock get() {
        return new ReentrantLock();
    }
}
