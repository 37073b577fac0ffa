package embed

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
)

func embedOne(t testing.TB, e *Builtin, s string) []float32 {
	t.Helper()
	v, err := e.Embed(context.Background(), []string{s})
	if err != nil {
		t.Fatal(err)
	}
	return v[0]
}

func l2(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func TestNewBuiltin(t *testing.T) {
	tests := []struct {
		dim      int
		wantDim  int
		wantName string
	}{
		{0, 768, "builtin-hash-v1-768"},
		{-5, 768, "builtin-hash-v1-768"},
		{256, 256, "builtin-hash-v1-256"},
		{7, 7, "builtin-hash-v1-7"},
	}
	for _, tt := range tests {
		e := NewBuiltin(tt.dim)
		if e.Dim() != tt.wantDim || e.Name() != tt.wantName {
			t.Errorf("NewBuiltin(%d): Dim %d Name %q, want %d %q", tt.dim, e.Dim(), e.Name(), tt.wantDim, tt.wantName)
		}
		if n := len(embedOne(t, e, "database port 数据库")); n != tt.wantDim {
			t.Errorf("NewBuiltin(%d): len(vector) = %d, want %d", tt.dim, n, tt.wantDim)
		}
		if n := len(e.EmbedQuery("数据库")); n != tt.wantDim {
			t.Errorf("NewBuiltin(%d): len(query vector) = %d, want %d", tt.dim, n, tt.wantDim)
		}
	}
}

func TestEmbedDeterministicUnitNorm(t *testing.T) {
	texts := []string{
		"database:\n  port: 5432",
		"数据库端口",
		"ERROR failed to connect: connection refused",
		"maxConnections=100 in config.yaml",
		"Ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３", // NFKC folds to "Fullwidth ABC 123"
		"x",
	}
	for _, s := range texts {
		a := embedOne(t, NewBuiltin(0), s)
		b := embedOne(t, NewBuiltin(0), s)
		if !slices.Equal(a, b) {
			t.Errorf("%q: vectors differ between runs", s)
		}
		if n := l2(a); math.Abs(n-1) > 1e-5 {
			t.Errorf("%q: norm = %v, want 1", s, n)
		}
		q1, q2 := NewBuiltin(0).EmbedQuery(s), NewBuiltin(0).EmbedQuery(s)
		if !slices.Equal(q1, q2) {
			t.Errorf("%q: query vectors differ between runs", s)
		}
		if n := l2(q1); math.Abs(n-1) > 1e-5 {
			t.Errorf("%q: query norm = %v, want 1", s, n)
		}
	}
	if c := Cosine(embedOne(t, NewBuiltin(0), "Ｆｕｌｌｗｉｄｔｈ ＡＢＣ"), embedOne(t, NewBuiltin(0), "fullwidth abc")); c < 0.999 {
		t.Errorf("NFKC/case folding: cosine = %v, want 1", c)
	}
}

func TestEmbedZeroVector(t *testing.T) {
	e := NewBuiltin(64)
	for _, s := range []string{"", "   \n\t", "!!! --- ...", "the a of"} {
		v := embedOne(t, e, s)
		if l2(v) != 0 {
			t.Errorf("%q: want zero vector, got norm %v", s, l2(v))
		}
		if c := Cosine(v, embedOne(t, e, "database")); c != 0 {
			t.Errorf("%q: cosine with zero vector = %v, want 0", s, c)
		}
	}
	if l2(e.EmbedQuery("")) != 0 {
		t.Error("EmbedQuery(\"\"): want zero vector")
	}
}

func TestEmbedBatchAndContext(t *testing.T) {
	e := NewBuiltin(0)
	texts := []string{"a log", "", "数据库"}
	vs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != len(texts) {
		t.Fatalf("got %d vectors, want %d", len(vs), len(texts))
	}
	for i, s := range texts {
		if !slices.Equal(vs[i], embedOne(t, e, s)) {
			t.Errorf("batch vector %d differs from single embedding", i)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Embed(ctx, texts); !errors.Is(err, context.Canceled) {
		t.Errorf("Embed with cancelled ctx: err = %v, want context.Canceled", err)
	}
}

func TestEmbedConcurrent(t *testing.T) {
	e := NewBuiltin(0)
	texts := []string{"database port 5432", "证书过期", "ERROR in app.log", "nginx.conf proxy_pass"}
	want, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			for range 50 {
				got, err := e.Embed(context.Background(), texts)
				if err != nil {
					errs <- err
					return
				}
				for i := range got {
					if !slices.Equal(got[i], want[i]) {
						errs <- errors.New("concurrent vector differs")
						return
					}
				}
				e.EmbedQuery("数据库端口")
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// corpus is a small mixed-language ops corpus for retrieval sanity checks.
var corpus = map[string]string{
	"config.yaml": `# config.yaml
database:
  host: db.internal
  port: 5432
  user: app
  max_connections: 50
cache:
  ttl: 300`,
	"nginx.conf": `server {
    listen 443 ssl;
    server_name example.com;
    ssl_certificate /etc/nginx/certs/example.pem;
    location / {
        proxy_pass http://127.0.0.1:8080;
    }
    access_log /var/log/nginx/access.log;
}`,
	"app.log": `app.log
2024-05-01 12:00:01 INFO service started on :8080
2024-05-01 12:00:05 ERROR failed to query upstream: connection refused
2024-05-01 12:00:09 ERROR request timeout after 30s
2024-05-01 12:00:10 WARN retrying in 5s`,
	"README-backup": `## Backup
Backups run nightly from cron at 02:00 and are uploaded to object storage.
Backup policy: keep 7 daily and 4 weekly snapshots. Restore with ./scripts/restore.sh.`,
	"cert-renewal": `# 证书续期
TLS 证书有效期 90 天，到期前 30 天会触发告警。过期后执行 certbot renew 续期，然后 reload nginx。`,
	"firewall":   `防火墙规则：只开放 22、80、443，使用 firewall-cmd --permanent --add-service=https 添加服务。`,
	"monitoring": `Prometheus alert rules: fire MemoryHigh when memory usage exceeds 90% for 5 minutes; page on-call.`,
	"deploy":     `部署流程：构建 Docker 镜像，推送到仓库，然后滚动升级 Kubernetes Deployment，检查版本号。`,
}

func TestRetrieval(t *testing.T) {
	e := NewBuiltin(0)
	ids := make([]string, 0, len(corpus))
	for id := range corpus {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	docs := make([]string, len(ids))
	for i, id := range ids {
		docs[i] = corpus[id]
	}
	vecs, err := e.Embed(context.Background(), docs)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query string
		want  string
	}{
		{"数据库端口", "config.yaml"},
		{"database port", "config.yaml"},
		{"证书过期怎么办", "cert-renewal"},
		{"找一下错误日志", "app.log"},
		{"config.yaml", "config.yaml"},
		{"备份策略", "README-backup"},
		{"how do I restore a backup", "README-backup"},
		{"内存告警", "monitoring"},
		{"防火墙端口", "firewall"},
		{"upgrade deployment version", "deploy"},
		{"nginx proxy_pass", "nginx.conf"},
	}
	for _, tt := range tests {
		q := e.EmbedQuery(tt.query)
		type hit struct {
			id    string
			score float32
		}
		hits := make([]hit, len(ids))
		for i, id := range ids {
			hits[i] = hit{id, Cosine(q, vecs[i])}
		}
		slices.SortStableFunc(hits, func(a, b hit) int {
			switch {
			case a.score > b.score:
				return -1
			case a.score < b.score:
				return 1
			}
			return 0
		})
		if hits[0].id != tt.want {
			t.Errorf("query %q: top %s (%.3f), want %s; ranking %v", tt.query, hits[0].id, hits[0].score, tt.want, hits)
		} else if testing.Verbose() {
			t.Logf("query %q: %s %.3f, runner-up %s %.3f", tt.query, hits[0].id, hits[0].score, hits[1].id, hits[1].score)
		}
	}
}

func TestExpansionQueryOnly(t *testing.T) {
	e := NewBuiltin(0)
	doc := embedOne(t, e, "database port: 5432")
	plain := Cosine(embedOne(t, e, "数据库端口"), doc)
	expanded := Cosine(e.EmbedQuery("数据库端口"), doc)
	// Without expansion the scripts share no features; any similarity is
	// from hash collisions.
	if expanded < 0.3 || expanded < plain+0.2 {
		t.Errorf("数据库端口 vs English doc: expanded cosine %v, plain %v; want expanded >= 0.3 and well above plain", expanded, plain)
	}
	if got := Cosine(embedOne(t, e, "数据库端口"), e.EmbedQuery("hello")); got > 0.2 {
		t.Errorf("unrelated query: cosine %v", got)
	}
}

func BenchmarkEmbed(b *testing.B) {
	var sb strings.Builder
	for sb.Len() < 64<<10 {
		for _, id := range []string{"config.yaml", "nginx.conf", "app.log", "README-backup", "cert-renewal", "firewall", "monitoring", "deploy"} {
			sb.WriteString(corpus[id])
			sb.WriteByte('\n')
		}
	}
	text := sb.String()[:64<<10]
	e := NewBuiltin(0)
	ctx := context.Background()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Embed(ctx, []string{text}); err != nil {
			b.Fatal(err)
		}
	}
}
