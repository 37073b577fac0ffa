#!/usr/bin/env bash
# backup_mysql.sh —— MySQL 全量备份脚本（XtraBackup）+ 上传 OSS
# 运行位置：backup-01 (10.10.6.61)，由 backup 用户的 crontab 每天 02:00 调用：
#   0 2 * * * /opt/backup/backup_mysql.sh full >> /var/log/backup/mysql-$(date +\%Y\%m\%d).log 2>&1
# 维护人：DBA 王芳   版本：v1.6 (2024-05-30)
#
# 依赖：percona-xtrabackup-80, ossutil64, mysql client, socat
# 凭据：/opt/backup/.env（BACKUP_DB_PASSWORD、HAPROXY_SOCKET、WECOM_WEBHOOK），由 consul-template 渲染，权限 0600

set -euo pipefail

MODE="${1:-full}"
SOURCE_HOST="10.10.3.13"          # db-replica-02，全量固定从这台拉
SOURCE_PORT=3306
BACKUP_USER="backup_ro"
BACKUP_ROOT="/data/backup/mysql/full"
OSS_BUCKET="oss://lanshan-db-backup/mysql/full"
KEEP_LOCAL_DAYS=14
MIN_FREE_GB=800                   # 本地剩余空间低于 800G 直接放弃，避免把备份盘写满
PARALLEL=8
HAPROXY_HOST="10.10.3.5"
TEXTFILE_DIR="/var/lib/node_exporter/textfile"

# shellcheck source=/dev/null
source /opt/backup/.env
: "${BACKUP_DB_PASSWORD:?BACKUP_DB_PASSWORD 为空，检查 /opt/backup/.env}"

TS="$(date +%Y%m%d_%H%M)"
TARGET="${BACKUP_ROOT}/${TS}"
START_EPOCH=$(date +%s)

log()  { echo "$(date '+%F %T') [INFO ] $*"; }
warn() { echo "$(date '+%F %T') [WARN ] $*"; }
die()  { echo "$(date '+%F %T') [ERROR] $*"; notify "MySQL 备份失败: $*"; exit 1; }

notify() {
  curl -s -m 10 -H 'Content-Type: application/json' \
    -d "{\"msgtype\":\"text\",\"text\":{\"content\":\"[backup-01] $1\"}}" \
    "${WECOM_WEBHOOK}" >/dev/null || true
}

haproxy_state() {
  # $1 = drain | ready ；通过 HAProxy runtime API 让 replica-02 暂时不接读流量
  echo "set server mysql-read/db-replica-02 state $1" | \
    ssh -o BatchMode=yes backup@"${HAPROXY_HOST}" "socat stdio /var/lib/haproxy/stats" || warn "HAProxy 状态切换失败($1)，继续执行"
}

trap 'haproxy_state ready' EXIT

[[ "${MODE}" == "full" ]] || die "目前只支持 full 模式，增量由 binlog-sync.sh 负责"

log "===== MySQL 全量备份开始 ====="
free_gb=$(df -BG --output=avail /data/backup | tail -1 | tr -dc '0-9')
(( free_gb >= MIN_FREE_GB )) || die "/data/backup 剩余 ${free_gb}G，低于 ${MIN_FREE_GB}G"

lag=$(mysql -h "${SOURCE_HOST}" -u "${BACKUP_USER}" -p"${BACKUP_DB_PASSWORD}" -N -e \
      "SHOW REPLICA STATUS\G" | awk '/Seconds_Behind_Source/ {print $2}')
[[ "${lag}" != "NULL" && "${lag}" -lt 300 ]] || die "replica-02 延迟异常: ${lag}"

haproxy_state drain
mkdir -p "${TARGET}"

xtrabackup --backup --host="${SOURCE_HOST}" --port="${SOURCE_PORT}" \
  --user="${BACKUP_USER}" --password="${BACKUP_DB_PASSWORD}" \
  --slave-info --safe-slave-backup --parallel="${PARALLEL}" \
  --compress --compress-threads="${PARALLEL}" \
  --stream=xbstream --target-dir="${TARGET}" > "${TARGET}/backup.xbstream" \
  || die "xtrabackup 执行失败"

haproxy_state ready

( cd "${TARGET}" && sha256sum backup.xbstream > SHA256SUMS )
log "压缩后大小: $(du -sh "${TARGET}" | cut -f1)"

ossutil64 cp -r -f --jobs 16 --parallel 8 --storage-class IA \
  "${TARGET}/" "${OSS_BUCKET}/${TS}/" || die "上传 OSS 失败"

# 清理本地旧备份（OSS 上的保留策略由 prune-old-backups.sh 负责）
find "${BACKUP_ROOT}" -mindepth 1 -maxdepth 1 -type d -mtime +"${KEEP_LOCAL_DAYS}" -print -exec rm -rf {} +

# 给 Prometheus 的 textfile 指标，BackupJobMissing 告警依赖它
size_bytes=$(du -sb "${TARGET}" | cut -f1)
cat > "${TEXTFILE_DIR}/mysql_backup.prom.tmp" <<PROM
backup_last_success_timestamp_seconds{job="mysql-backup"} $(date +%s)
backup_size_bytes{job="mysql-backup"} ${size_bytes}
backup_duration_seconds{job="mysql-backup"} $(( $(date +%s) - START_EPOCH ))
PROM
mv "${TEXTFILE_DIR}/mysql_backup.prom.tmp" "${TEXTFILE_DIR}/mysql_backup.prom"

notify "MySQL 全量备份成功 ${TS}，耗时 $(( ($(date +%s) - START_EPOCH) / 60 )) 分钟"
log "===== MySQL 全量备份结束: 成功 ====="
