package practice

// AppendAdmitted is AppendAudio after admission: a test changes the world
// between a piece's admission and its transaction, a window no request can
// be timed into.
var AppendAdmitted = (*Service).appendAdmitted
