// expect: 2:7
class {
}
