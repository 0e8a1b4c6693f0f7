// spec: lock.cfg
// expect: verified
// why: the finally block cannot see the catch clause's `ex`, so its own catch parameter
// `ex` is no redeclaration; every way out of `f` unlocks.
import java.util.concurrent.locks.ReentrantLock;
class Main {
  static ReentrantLock l = new ReentrantLock();
  static Object f() {
    l.lock();
    try {
      if (Input.readBool()) throw new IllegalStateException();
      return null;
    } catch (RuntimeException ex) {
      return ex;
    } finally {
      try { l.unlock(); } catch (IllegalMonitorStateException ex) { System.out.println(ex); }
    }
  }
  public static void main(String[] a) { f(); }
}
