package util.concurrent;

public class Lock {
    public void lock() {}

    public void unlock() {}
}
