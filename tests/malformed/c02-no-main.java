// expect: 3:1
// spec: lock.cfg
class Main {
    static void helper() { }
}
