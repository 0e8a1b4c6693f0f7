// expect: 5:14
// spec: lock.cfg
class Main {
    public static void main(String[] args) {
        try (Reader r = open()) { }
    }
}
