// expect: 3:7
// spec: lock.cfg
class Main {
    static void helper() { }
}
