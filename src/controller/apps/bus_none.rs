//! Where there is no AT-SPI: the tools answer that no accessibility bus is here. macOS
//! Accessibility and Windows UI Automation map to the same four tools (docs/architecture.md).

use super::{Node, Obj, Running, Tree};
use crate::shared::error::{Code, ToolError};

pub enum Bus {}

impl Bus {
    pub async fn connect() -> Result<Bus, ToolError> {
        Err(ToolError::failed(
            Code::AppBusUnavailable,
            "local applications are driven through AT-SPI, on Linux only for now",
        ))
    }

    pub async fn running(&self) -> Result<Vec<Running>, ToolError> {
        match *self {}
    }

    pub async fn node(&self, _: &Obj) -> Result<Node, ToolError> {
        match *self {}
    }

    pub async fn tree(&self, _: &Obj, _: usize) -> Result<Tree, ToolError> {
        match *self {}
    }

    pub async fn click(&self, _: &Obj) -> Result<String, ToolError> {
        match *self {}
    }

    pub async fn focus(&self, _: &Obj) -> Result<(), ToolError> {
        match *self {}
    }

    pub async fn set_text(&self, _: &Obj, _: &str) -> Result<(), ToolError> {
        match *self {}
    }

    pub async fn set_value(&self, _: &Obj, _: f64) -> Result<(), ToolError> {
        match *self {}
    }

    pub async fn select(&self, _: &Obj, _: Option<&str>) -> Result<(), ToolError> {
        match *self {}
    }

    pub async fn checked(&self, _: &Obj) -> Result<bool, ToolError> {
        match *self {}
    }

    pub async fn press_key(&self, _: &Obj, _: &str) -> Result<(), ToolError> {
        match *self {}
    }
}
