package audit

import (
	"bufio"
	"errors"
	"io"
)

// lineReader reads a log file line by line in bounded memory: a line
// longer than MaxLine is reported, not read whole.
type lineReader struct {
	r *bufio.Reader
	// n is the 1-based number of the line last returned.
	n int
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, MaxLine+1)}
}

// next returns the next line without its newline. The slice is valid
// until the next call. torn is true for a last line without a newline;
// tooLong for a line over MaxLine bytes, whose rest next skips. At the
// end it returns io.EOF.
func (lr *lineReader) next() (line []byte, torn, tooLong bool, err error) {
	line, err = lr.r.ReadSlice('\n')
	switch {
	case err == nil:
		lr.n++
		line = line[:len(line)-1]
		if len(line) > MaxLine {
			return nil, false, true, nil
		}
		return line, false, false, nil
	case errors.Is(err, bufio.ErrBufferFull):
		lr.n++
		for errors.Is(err, bufio.ErrBufferFull) {
			_, err = lr.r.ReadSlice('\n')
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, false, false, err
		}
		return nil, false, true, nil
	case errors.Is(err, io.EOF) && len(line) > 0:
		lr.n++
		return line, true, false, nil
	}
	return nil, false, false, err
}
