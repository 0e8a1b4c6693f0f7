// expect: 5:24
// spec: lock.cfg
class Main {
    public static void main(String[] args) {
        int x = 1; int x = 2;
    }
}
