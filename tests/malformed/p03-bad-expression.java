// expect: 3:17
class Main {
    int x = 3 + ;
}
