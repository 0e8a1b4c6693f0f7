// expect: 4:32
class Main {
    void f() {
        try (Reader r = open() { r.read(); }
    }
}
