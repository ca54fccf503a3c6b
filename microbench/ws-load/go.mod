module weir.io/microbench/wsload

go 1.19

require github.com/gorilla/websocket v1.5.3
