package config

import (
	"encoding"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// EnvPrefix starts the name of every environment override.
const EnvPrefix = "OPSASSIST_"

// ApplyEnv overrides scalar fields from environment variables named
// OPSASSIST_ followed by the upper-cased YAML path joined with "_", for
// example OPSASSIST_NPLT or OPSASSIST_LIMITS_MAX_UPLOAD. lookup is usually
// os.LookupEnv.
func (c *Config) ApplyEnv(lookup func(string) (string, bool)) error {
	return applyEnv(reflect.ValueOf(c).Elem(), EnvPrefix, lookup)
}

// EnvNames lists every environment variable ApplyEnv reads.
func EnvNames() []string {
	var names []string
	c := Defaults()
	applyEnv(reflect.ValueOf(&c).Elem(), EnvPrefix, func(k string) (string, bool) {
		names = append(names, k)
		return "", false
	})
	return names
}

var durationType = reflect.TypeOf(time.Duration(0))

func applyEnv(v reflect.Value, prefix string, lookup func(string) (string, bool)) error {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		tag := strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0]
		if tag == "" || tag == "-" {
			continue
		}
		fv := v.Field(i)
		if fv.Kind() == reflect.Slice || fv.Kind() == reflect.Map {
			continue // lists (providers, users) and maps (roles) are set in the YAML file only
		}
		name := prefix + strings.ToUpper(tag)
		if fv.Kind() == reflect.Struct {
			if err := applyEnv(fv, name+"_", lookup); err != nil {
				return err
			}
			continue
		}
		s, ok := lookup(name)
		if !ok {
			continue
		}
		if err := setScalar(fv, s); err != nil {
			return fmt.Errorf("config: %s: %w", name, err)
		}
	}
	return nil
}

func setScalar(v reflect.Value, s string) error {
	if v.CanAddr() {
		if tu, ok := v.Addr().Interface().(encoding.TextUnmarshaler); ok {
			return tu.UnmarshalText([]byte(s))
		}
	}
	switch {
	case v.Type() == durationType:
		d, err := time.ParseDuration(s)
		if err != nil {
			return err
		}
		v.SetInt(int64(d))
	case v.Kind() == reflect.String:
		v.SetString(s)
	case v.Kind() == reflect.Int || v.Kind() == reflect.Int64:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return err
		}
		v.SetInt(n)
	case v.Kind() == reflect.Float64:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return err
		}
		v.SetFloat(f)
	case v.Kind() == reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return err
		}
		v.SetBool(b)
	}
	return nil
}
