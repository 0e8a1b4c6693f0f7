package app;

/** Not the lock Main uses: Main imports util.concurrent.Lock. */
class Lock {
    void lock() {}
}
