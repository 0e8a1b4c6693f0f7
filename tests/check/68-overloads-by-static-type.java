// spec: lock.cfg
// expect: verified
// why: javac picks overloads by the arguments' static types (JLS 15.12.2): `put(int)`
// before `put(long)` for 1, `ch(char)` for 'a', `f(Animal)` for an `Animal` variable
// holding a Dog and `f(Dog)` for `new Dog()`: lock unlock each time.
class Animal {}
class Dog extends Animal {}
class Main {
    static ReentrantLock L = new ReentrantLock();
    static void put(int x) { L.lock(); }
    static void put(long x) { L.unlock(); }
    static void ch(int c) { L.lock(); }
    static void ch(char c) { L.unlock(); }
    static void f(Animal a) { L.lock(); }
    static void f(Dog d) { L.unlock(); }
    public static void main(String[] args) {
        put(1); put(2L);
        ch(97); ch('a');
        Animal a = new Dog(); f(a); f(new Dog());
    }
}
