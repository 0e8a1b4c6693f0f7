/** `java.util.concurrent.locks.ReentrantLock`: events only; queries have arbitrary results. */
class ReentrantLock extends Lock {
    public ReentrantLock() {
    }

    public ReentrantLock(boolean fair) {
    }

    public boolean isLocked() {
        return cfporacle.Rt.extBool();
    }

    public boolean isHeldByCurrentThread() {
        return cfporacle.Rt.extBool();
    }

    public int getHoldCount() {
        return cfporacle.Rt.extInt();
    }
}
