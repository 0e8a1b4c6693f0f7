// spec: lock.cfg
package demo.locks;

import java.util.List;
import java.util.ArrayList;

public class Main {
    public static void main(String[] args) {
        List<ReentrantLock> locks = new ArrayList<>();
        locks.add(new ReentrantLock());
        for (ReentrantLock l : locks) {
            l.lock();
            l.unlock();
        }
        for (String s : args) {
            System.out.println(s);
        }
    }
}
