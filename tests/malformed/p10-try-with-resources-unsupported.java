// expect: 4:13
class Main {
    void f() {
        try (Reader r = open()) { }
    }
}
