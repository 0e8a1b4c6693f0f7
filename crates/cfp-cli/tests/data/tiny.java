// A fixed, small violation for the `cfp share` snapshot (tiny.record.json was made by
// `cfp check crates/cfp-cli/tests/data/tiny.java --spec tests/specs/lock.cfg
//  --record crates/cfp-cli/tests/data/tiny.record.json --no-timing`).
class Main {
    static void main(ReentrantLock l) {
        l.lock();
        if (*) {
            l.unlock();
        }
    }
}
