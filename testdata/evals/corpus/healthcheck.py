#!/usr/bin/env python3
"""
healthcheck.py —— 巡检脚本：每 5 分钟由 mon-01 上的 systemd timer (healthcheck.timer) 运行。

检查项：
  1. 对外 HTTPS 入口是否 200，以及证书剩余天数
  2. order-service 两个实例的 /healthz
  3. MySQL 主库可写、从库复制延迟（通过 lb-db-01:3307 读）
  4. Redis PING 与内存占用
  5. 关键主机磁盘剩余（通过 Prometheus API 查询）

结果：任一项失败时向企业微信 #ops-alert 推送一条汇总消息；连续 3 次失败才推送，
避免网络抖动误报（状态记录在 /var/lib/healthcheck/state.json）。
退出码：0 全部正常，1 有告警，2 脚本自身异常。

维护人：SRE 赵静
"""
import json
import os
import socket
import ssl
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import pymysql
import redis
import requests

STATE_FILE = Path("/var/lib/healthcheck/state.json")
FAIL_THRESHOLD = 3            # 连续失败次数达到 3 才发通知
CERT_WARN_DAYS = 14
DISK_FREE_WARN_PCT = 15
REPL_LAG_WARN_SEC = 30
REDIS_MEM_WARN_RATIO = 0.9
PROM = "http://10.10.5.51:9090"
WECOM_WEBHOOK = os.environ.get("WECOM_WEBHOOK", "")

HTTPS_ENDPOINTS = [
    "https://shop.lanshan-tech.cn/",
    "https://api.lanshan-tech.cn/healthz",
    "https://pay.lanshan-tech.cn/actuator/health",
]
ORDER_INSTANCES = ["10.10.2.31:8081", "10.10.2.32:8081"]


def check_https(url: str) -> tuple[bool, str]:
    try:
        r = requests.get(url, timeout=5)
        if r.status_code != 200:
            return False, f"{url} 返回 {r.status_code}"
    except requests.RequestException as e:
        return False, f"{url} 请求失败: {e}"
    host = url.split("/")[2]
    ctx = ssl.create_default_context()
    with socket.create_connection((host, 443), timeout=5) as sock:
        with ctx.wrap_socket(sock, server_hostname=host) as s:
            not_after = s.getpeercert()["notAfter"]
    expires = datetime.strptime(not_after, "%b %d %H:%M:%S %Y %Z").replace(tzinfo=timezone.utc)
    days = (expires - datetime.now(timezone.utc)).days
    if days < CERT_WARN_DAYS:
        return False, f"{host} 证书还剩 {days} 天"
    return True, f"{url} ok, cert {days}d"


def check_order_instances() -> list[tuple[bool, str]]:
    out = []
    for inst in ORDER_INSTANCES:
        try:
            r = requests.get(f"http://{inst}/healthz", timeout=3)
            out.append((r.status_code == 200, f"order-service {inst} -> {r.status_code}"))
        except requests.RequestException as e:
            out.append((False, f"order-service {inst} 不可达: {e}"))
    return out


def check_mysql() -> list[tuple[bool, str]]:
    res = []
    pw = os.environ["HC_MYSQL_PASSWORD"]
    # 主库写探针：往 healthcheck.heartbeat 写一行时间戳
    try:
        conn = pymysql.connect(host="10.10.3.11", port=3306, user="hc", password=pw,
                               database="healthcheck", connect_timeout=3)
        with conn.cursor() as cur:
            cur.execute("REPLACE INTO heartbeat (id, ts) VALUES (1, NOW(6))")
        conn.commit()
        res.append((True, "mysql primary writable"))
    except Exception as e:  # noqa: BLE001
        res.append((False, f"MySQL 主库写入失败: {e}"))
    # 从库延迟：经 HAProxy 读 heartbeat，与当前时间比较
    try:
        conn = pymysql.connect(host="10.10.3.5", port=3307, user="hc", password=pw,
                               database="healthcheck", connect_timeout=3)
        with conn.cursor() as cur:
            cur.execute("SELECT TIMESTAMPDIFF(SECOND, ts, NOW(6)) FROM heartbeat WHERE id = 1")
            lag = cur.fetchone()[0]
        res.append((lag <= REPL_LAG_WARN_SEC, f"replica lag {lag}s"))
    except Exception as e:  # noqa: BLE001
        res.append((False, f"MySQL 只读入口 lb-db-01:3307 不可用: {e}"))
    return res


def check_redis() -> tuple[bool, str]:
    r = redis.Redis(host="10.10.4.41", port=6379, password=os.environ["HC_REDIS_PASSWORD"],
                    socket_timeout=2)
    try:
        r.ping()
        info = r.info("memory")
        ratio = info["used_memory"] / max(info["maxmemory"], 1)
        return ratio < REDIS_MEM_WARN_RATIO, f"redis mem {ratio:.0%}"
    except redis.RedisError as e:
        return False, f"Redis 异常: {e}"


def check_disks() -> list[tuple[bool, str]]:
    q = ('min by (instance) (node_filesystem_avail_bytes{fstype=~"ext4|xfs"} '
         '/ node_filesystem_size_bytes * 100)')
    data = requests.get(f"{PROM}/api/v1/query", params={"query": q}, timeout=5).json()
    out = []
    for item in data["data"]["result"]:
        pct = float(item["value"][1])
        out.append((pct >= DISK_FREE_WARN_PCT, f"{item['metric']['instance']} 磁盘剩余 {pct:.1f}%"))
    return out


def load_state() -> dict:
    try:
        return json.loads(STATE_FILE.read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return {}


def notify(lines: list[str]) -> None:
    if not WECOM_WEBHOOK:
        print("WECOM_WEBHOOK 未配置，跳过通知", file=sys.stderr)
        return
    body = {"msgtype": "markdown",
            "markdown": {"content": "**巡检异常** " + time.strftime("%F %T") + "\n" + "\n".join(f"- {l}" for l in lines)}}
    requests.post(WECOM_WEBHOOK, json=body, timeout=5)


def main() -> int:
    results: list[tuple[bool, str]] = []
    results += [check_https(u) for u in HTTPS_ENDPOINTS]
    results += check_order_instances()
    results += check_mysql()
    results.append(check_redis())
    results += check_disks()

    state = load_state()
    alerts = []
    for ok, msg in results:
        key = msg.split(" ")[0]
        state[key] = 0 if ok else state.get(key, 0) + 1
        if not ok and state[key] >= FAIL_THRESHOLD:
            alerts.append(msg)
    STATE_FILE.parent.mkdir(parents=True, exist_ok=True)
    STATE_FILE.write_text(json.dumps(state))

    for ok, msg in results:
        print(("OK   " if ok else "FAIL ") + msg)
    if alerts:
        notify(alerts)
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as exc:  # noqa: BLE001
        print(f"healthcheck crashed: {exc}", file=sys.stderr)
        sys.exit(2)
