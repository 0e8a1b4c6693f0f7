// expect: 5:9
// spec: lock.cfg
class Main {
    public static void main(String[] args) {
        count = 3;
    }
}
